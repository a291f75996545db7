/** MQTT topic filters (`orders/+/status`, `orders/#`), so a message reaches the subscriptions whose filter it matches. */

/** Whether `topic` matches the MQTT topic filter `filter` (`+` one level, `#` the rest; `$` topics only by name). */
export function topicMatches(filter: string, topic: string): boolean {
  if (filter === topic) return true;
  // A wildcard at the first level never matches a `$SYS`-like topic (MQTT 5 §4.7.2).
  if (topic.startsWith('$') && (filter.startsWith('+') || filter.startsWith('#'))) return false;
  const filterLevels = filter.split('/');
  const topicLevels = topic.split('/');
  for (let i = 0; i < filterLevels.length; i++) {
    const level = filterLevels[i];
    if (level === '#') return i === filterLevels.length - 1;
    if (i >= topicLevels.length) return false;
    if (level !== '+' && level !== topicLevels[i]) return false;
  }
  return filterLevels.length === topicLevels.length;
}
