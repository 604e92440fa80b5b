import { runPhases } from '../../shared/src/run-action.js';
import { checkPhase, readOutcome, readReport, saveOutcome } from './check-phase.js';
import { publishPhase } from './publish-phase.js';
import { readSettings } from './settings.js';

runPhases({ readSettings, checkPhase, saveOutcome, readOutcome, readReport, publishPhase });
