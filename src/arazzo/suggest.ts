/** A " (did you mean X?)" suffix naming the closest candidate, or '' when none is close enough. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = loose(candidate) === loose(name) ? 0 : editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // Allow roughly one typo per four characters, and always at least one.
  const allowed = Math.max(1, Math.floor(name.length / 4));
  return best !== undefined && bestDistance <= allowed ? ` (did you mean "${best}"?)` : '';
}

// `pet_id`, `petId` and `Pet-ID` are the same name written in different conventions.
function loose(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Edit distance where swapping two neighbouring characters (`chlid` for `child`) counts as one typo. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
