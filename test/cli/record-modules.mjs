// Preloaded with `node --import`: records every module the process loads and prints the list at exit.

import { writeSync } from 'node:fs';
import module from 'node:module';

const loaded = new Set();
module.registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  writeSync(2, `\nLOADED_MODULES ${JSON.stringify([...loaded])}\n`);
});
