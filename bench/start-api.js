/** Starts the bench API (bench/api-server.js) as its own process, for bench/run.js and bench/suite.js. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const API_SERVER = fileURLToPath(new URL('./api-server.js', import.meta.url));

/** Starts bench/api-server.js; resolves once it prints its URL. Closing its stdin stops it. */
export function startApi() {
  const child = spawn(process.execPath, [API_SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the bench API exited early (${code})`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /listening (\S+)/.exec(text);
      if (match) resolve({ url: match[1], stop: () => child.stdin.end() });
    });
  });
}

