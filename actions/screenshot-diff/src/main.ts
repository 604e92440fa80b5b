import { runAction } from '../../shared/src/run-action.js';
import { runScreenshotDiff } from './run.js';
import { readSettings } from './settings.js';

runAction(() => runScreenshotDiff(readSettings()));
