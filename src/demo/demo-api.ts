import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running demo API. */
export interface DemoApi {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

interface Pet {
  id: number;
  name: string;
  tag?: string;
}

interface Adoption {
  id: string;
  petId: number;
  adopter: string;
  status: 'pending' | 'approved';
  looks: number;
}

const MAX_BODY = 64 * 1024;

/**
 * Starts the demo pet shelter (examples/demo/pets.openapi.yaml) on 127.0.0.1 and an OS-assigned
 * port. Adoption requests are refused with 503 on each pet's first try, and an adoption stays
 * pending for its first two looks, so the demo workflow shows a retry and a polling goto.
 */
export async function startDemoApi(): Promise<DemoApi> {
  const pets = new Map<number, Pet>();
  const adoptions = new Map<string, Adoption>();
  const busyOnce = new Set<number>();
  let nextPet = 1;

  const server = createServer((req, res) => {
    readJson(req)
      .then((body) => route(req, res, body))
      .catch(() => send(res, 400, { error: 'request body is not valid JSON' }));
  });

  function route(req: IncomingMessage, res: ServerResponse, body: unknown): void {
    const url = new URL(req.url ?? '/', 'http://demo');
    const parts = url.pathname.split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    if (parts[0] === 'pets' && parts.length === 1 && method === 'GET') {
      const tag = url.searchParams.get('tag');
      return send(res, 200, [...pets.values()].filter((p) => tag === null || p.tag === tag));
    }
    if (parts[0] === 'pets' && parts.length === 1 && method === 'POST') {
      const input = body as Partial<Pet> | undefined;
      if (!input || typeof input.name !== 'string' || input.name === '') return send(res, 422, { error: 'name is required' });
      const pet: Pet = { id: nextPet++, name: input.name, ...(typeof input.tag === 'string' ? { tag: input.tag } : {}) };
      pets.set(pet.id, pet);
      return send(res, 201, pet, { location: `/pets/${pet.id}` });
    }
    const pet = parts[0] === 'pets' ? pets.get(Number(parts[1])) : undefined;
    if (parts[0] === 'pets' && parts.length === 2 && method === 'GET') {
      return pet ? send(res, 200, pet) : send(res, 404, { error: `no pet ${parts[1]}` });
    }
    if (parts[0] === 'pets' && parts[2] === 'adoptions' && parts.length === 3 && method === 'POST') {
      if (!pet) return send(res, 404, { error: `no pet ${parts[1]}` });
      if (!busyOnce.has(pet.id)) {
        busyOnce.add(pet.id);
        return send(res, 503, { error: 'the shelter is busy; try again' }, { 'retry-after': '0' });
      }
      const adopter = typeof (body as { adopter?: unknown })?.adopter === 'string' ? (body as { adopter: string }).adopter : 'anonymous';
      const adoption: Adoption = { id: `a${pet.id}`, petId: pet.id, adopter, status: 'pending', looks: 0 };
      adoptions.set(adoption.id, adoption);
      return send(res, 202, view(adoption));
    }
    if (parts[0] === 'adoptions' && parts.length === 2 && method === 'GET') {
      const adoption = adoptions.get(parts[1] ?? '');
      if (!adoption) return send(res, 404, { error: `no adoption ${parts[1]}` });
      adoption.looks += 1;
      if (adoption.looks > 2) adoption.status = 'approved';
      return send(res, 200, view(adoption));
    }
    if (parts[0] === 'openapi.yaml' || parts[0] === 'health') return send(res, 200, { ok: true });
    return send(res, 404, { error: `no route ${method} ${url.pathname}` });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function view(adoption: Adoption): Omit<Adoption, 'looks'> {
  const { looks: _looks, ...rest } = adoption;
  return rest;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    });
  });
}
