import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';

/** SDK token (v2 verification): only the shared credential rows are known; others are `unknown`. */
export const createSdkTokenOutcomes: V2OutcomeTable = [...COMMON_V2_ROWS];
