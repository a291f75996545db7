import { performLogin } from '../../auth/login/perform-login.js';
import { planLogin } from '../../auth/login/plan-login.js';
import { browserOpener } from '../../auth/login/open-browser.js';
import { ttyPrompter } from '../../auth/login/prompter.js';
import { apiRegistry, requireApi } from '../../config/api-registry.js';
import { configPaths } from '../../config/paths.js';
import { createPipeline } from '../../http/create-pipeline.js';
import type { CommandIo } from './command-io.js';

/** The option values of `tool auth login`. */
export interface AuthLoginOptions {
  name: string;
  type: string | undefined;
  withToken: boolean;
  tokenEnv: string | undefined;
  username: string | undefined;
  passwordStdin: boolean;
  passwordEnv: string | undefined;
  keyName: string | undefined;
  keyIn: string | undefined;
  tokenUrl: string | undefined;
  authorizeUrl: string | undefined;
  deviceUrl: string | undefined;
  clientId: string | undefined;
  clientSecretStdin: boolean;
  clientSecretEnv: string | undefined;
  scopes: string[];
  browser: boolean;
}

/** `tool auth login <name>`: plans the login from the flags (or prompts), performs it and stores the credentials; throws ToolError as planLogin and performLogin do. */
export async function authLogin(options: AuthLoginOptions, { context, note }: CommandIo): Promise<number> {
  const { env, stdin, stderr, signal } = context;
  const paths = configPaths(env);
  const api = requireApi(await apiRegistry(paths).read(), options.name);
  const prompter = ttyPrompter(stdin, stderr);
  const plan = await planLogin(
    {
      type: options.type,
      withToken: options.withToken,
      tokenEnv: options.tokenEnv,
      username: options.username,
      passwordStdin: options.passwordStdin,
      passwordEnv: options.passwordEnv,
      keyName: options.keyName,
      keyIn: options.keyIn,
      tokenUrl: options.tokenUrl,
      authorizeUrl: options.authorizeUrl,
      deviceUrl: options.deviceUrl,
      clientId: options.clientId,
      clientSecretStdin: options.clientSecretStdin,
      clientSecretEnv: options.clientSecretEnv,
      scopes: options.scopes,
      noBrowser: !options.browser,
    },
    prompter === undefined ? { stdin } : { stdin, prompter },
  );
  // A browser is opened only for someone sitting at a terminal.
  const opener = options.browser && context.stderrIsTTY ? browserOpener(env) : undefined;
  let pipeline: ReturnType<typeof createPipeline> | undefined;
  try {
    const lines = await performLogin(api, plan, {
      paths,
      env,
      stderr,
      signal,
      pipeline: () => (pipeline ??= createPipeline()),
      ...(opener ? { openBrowser: opener } : {}),
    });
    for (const line of lines) note(line);
  } finally {
    pipeline?.close();
  }
  return 0;
}
