// `catalog --preset <name>`: prints a preset in the catalog file format.

import { PRESET_NAMES, presetByName } from '../../core/sim/presets';
import { checkKnown, CliError, stringOpt, type Args } from '../args';

export function catalogCommand(a: Args): void {
  checkKnown(a, ['preset']);
  const name = stringOpt(a, 'preset', 'toolorchestra');
  const c = presetByName(name);
  if (!c) throw new CliError(`unknown catalog preset "${name}" (presets: ${PRESET_NAMES.join(', ')})`);
  process.stdout.write(JSON.stringify(c, null, 2) + '\n');
}
