// A Stryker reporter plugin ("survivors"): appends each surviving or uncovered mutant, as it is tested, to
// the file named by MUTATION_SURVIVORS (scripts/mutation.mjs sets it per scope), so that a long run's
// survivors can be read, and tests written, before the run ends.
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

class SurvivorsReporter {
  onMutantTested(m) {
    const file = process.env.MUTATION_SURVIVORS;
    if (file === undefined || (m.status !== 'Survived' && m.status !== 'NoCoverage')) return;
    const where = `${relative(process.cwd(), m.fileName)}:${m.location.start.line}:${m.location.start.column}`;
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 160);
    appendFileSync(file, `${where} ${m.status} ${m.mutatorName} ${m.id} => ${replacement}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'survivors', SurvivorsReporter)];
