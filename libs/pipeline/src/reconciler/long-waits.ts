/*
 * The long waits' rules live in shared/ (the batch check uses them too, issue 29); the reconciler's
 * files import them from here.
 */
export * from '../shared/long-waits.js';
