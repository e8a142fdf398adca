// Runs a daemon in its own process, so tests can kill it with SIGKILL. Prints its URL once listening.
import { runDaemon } from '../../daemon/main.ts';

const [home] = process.argv.slice(2);
if (!home) throw new Error('usage: run-daemon.ts HOME');
const daemon = await runDaemon({ home, port: 0 });
process.stdout.write(`${daemon.url}\n`);
