import { it, expect } from 'vitest';
import { COMMAND_LOADERS, loadCommands } from './main.ts';

it('loads every command under the name it is listed by, so `geoshard <name>` finds it', async () => {
  const commands = await loadCommands();
  expect(commands.map((c) => c.name)).toEqual([...COMMAND_LOADERS.keys()]);
});
