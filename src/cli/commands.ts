import { groupHelpCommand } from './group-help-command.js';
import { ValidateCommand } from './validate-command.js';
import { RunCommand } from './run-command.js';

/** Every command class of the CLI except the builtins. Command files stay light: heavy modules load inside execute(). */
export const commandClasses = [
  groupHelpCommand('arazzo', 'validate and run Arazzo 1.0.1 workflows'),
  ValidateCommand,
  RunCommand,
];
