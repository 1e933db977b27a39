import { Kafka, logLevel } from 'kafkajs';

export type KafkaProbe =
  { readonly state: 'up' } | { readonly state: 'unavailable'; readonly reason: string };

/**
 * One metadata request to the bootstrap brokers, with no retries and no log lines (the boot wait
 * logs each attempt itself, at its own pace): kafkajs' own retries would stay silent for 25 s.
 */
export async function probeKafka(
  brokers: readonly string[],
  clientId: string,
  timeoutMs = 3_000,
): Promise<KafkaProbe> {
  const admin = new Kafka({
    clientId: `${clientId}-boot-probe`,
    brokers: [...brokers],
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  }).admin();
  try {
    await admin.connect();
    await admin.describeCluster();
    return { state: 'up' };
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    const message = e instanceof Error ? e.message : String(e);
    const detail = cause instanceof Error && !message.includes(cause.message) ? `: ${cause.message}` : '';
    return { state: 'unavailable', reason: `${brokers.join(',')}: ${message}${detail}` };
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
