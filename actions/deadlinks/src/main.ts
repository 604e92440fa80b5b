import { runAction } from '../../shared/src/run-action.js';
import { runDeadlinks } from './run.js';
import { readSettings } from './settings.js';

runAction(() => runDeadlinks(readSettings()));
