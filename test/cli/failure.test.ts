import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { ExitError } from '../../src/cli/exit.ts';
import { describe as describeFailure, exitCodeFor } from '../../src/cli/failure.ts';
import {
  CkbApiError,
  DaemonUnreachableError,
  InvalidResponseError,
  RequestAbortedError,
} from '../../src/client/index.ts';
import { ConfigError } from '../../src/config-error.ts';

const notFound = CkbApiError.generate(404, {
  error: { type: 'not_found', message: 'application app_x not found', param: 'application_id' },
});

describe('exit codes', () => {
  it('maps each kind of failure to the contract code', () => {
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toBe(0);
    expect(exitCodeFor(new CommanderError(1, 'commander.unknownOption', "unknown option '--x'"))).toBe(2);
    expect(exitCodeFor(new CommanderError(1, 'commander.help', '(outputHelp)'))).toBe(2);
    expect(exitCodeFor(new ConfigError('no API key'))).toBe(2);
    expect(exitCodeFor(notFound)).toBe(1);
    expect(exitCodeFor(new InvalidResponseError('odd'))).toBe(1);
    expect(exitCodeFor(new DaemonUnreachableError('http://127.0.0.1:1', { cause: null }))).toBe(3);
    expect(exitCodeFor(new ExitError('daemon would not start', 3))).toBe(3);
    expect(exitCodeFor(new RequestAbortedError('aborted'))).toBe(130);
    expect(exitCodeFor(new Error('bug'))).toBe(1);
  });

  it("prints the API's message with the field at fault, and nothing for commander's own errors", () => {
    expect(describeFailure(notFound)).toBe('application app_x not found (application_id)');
    expect(describeFailure(new CommanderError(1, 'commander.unknownOption', 'x'))).toBeUndefined();
    expect(describeFailure(new DaemonUnreachableError('http://127.0.0.1:1', { cause: null }))).toMatch(
      /cannot reach the ckb daemon at http:\/\/127\.0\.0\.1:1.*ckb daemon start/,
    );
  });
});
