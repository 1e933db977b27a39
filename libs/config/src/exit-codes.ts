/**
 * How a process of this project ends when it cannot start (sysexits.h), the same for every cause
 * of a kind, so an orchestrator or a person reads the cause from the code (docs/OPERATIONS.md).
 */
export const EXIT = {
  /** EX_UNAVAILABLE: a dependency (PostgreSQL, Kafka) stayed unreachable for the whole boot wait. */
  UNAVAILABLE: 69,
  /** EX_CONFIG: the configuration is wrong; a restart with the same one fails the same way. */
  CONFIG: 78,
} as const;
