import { ApiAddCommand } from './api-add-command.js';
import { ApiListCommand } from './api-list-command.js';
import { ApiOpsCommand } from './api-ops-command.js';
import { ApiRemoveCommand } from './api-remove-command.js';
import { ApiShowCommand } from './api-show-command.js';
import { AuthLoginCommand } from './auth-login-command.js';
import { AuthLogoutCommand } from './auth-logout-command.js';
import { AuthStatusCommand } from './auth-status-command.js';
import { CacheClearCommand } from './cache-clear-command.js';
import { ConfigShowCommand } from './config-show-command.js';
import { groupHelpCommand } from './group-help-command.js';
import { ValidateCommand } from './validate-command.js';
import { RunCommand } from './run-command.js';
import { TestCommand } from './test-command.js';
import { MergeReportsCommand } from './merge-reports-command.js';
import { ReplayCommand } from './replay-command.js';
import { GraphCommand } from './graph-command.js';
import { DemoCommand } from './demo-command.js';
import { McpServeCommand } from './mcp-command.js';
import { requestCommands } from './request-command.js';

/** Every command class of the CLI except the builtins. Command files stay light: heavy modules load inside execute(). */
export const commandClasses = [
  groupHelpCommand('arazzo', 'validate and run Arazzo 1.0.1 workflows'),
  ValidateCommand,
  RunCommand,
  TestCommand,
  MergeReportsCommand,
  ReplayCommand,
  GraphCommand,
  groupHelpCommand('api', 'register the APIs that tool talks to'),
  ApiAddCommand,
  ApiListCommand,
  ApiShowCommand,
  ApiRemoveCommand,
  ApiOpsCommand,
  groupHelpCommand('auth', 'log in to registered APIs and manage their credentials'),
  AuthLoginCommand,
  AuthLogoutCommand,
  AuthStatusCommand,
  groupHelpCommand('cache', 'manage the cache of fetched API descriptions'),
  CacheClearCommand,
  groupHelpCommand('config', 'show the project settings the arazzo commands use'),
  ConfigShowCommand,
  groupHelpCommand('mcp', 'serve Arazzo workflows as tools to AI agents (Model Context Protocol)'),
  McpServeCommand,
  ...requestCommands,
  DemoCommand,
];
