/** Worker thread that measures large documents before admission (budgets.ts), off the service's event loop. */
import { serveTasks } from '../workers/task-thread.js';
import { measureDocument, type DocumentMeasure, type MeasuredFeatures } from './budgets.js';

serveTasks<{ markdown: string; features: MeasuredFeatures }, DocumentMeasure>(({ markdown, features }) => measureDocument(markdown, features));
