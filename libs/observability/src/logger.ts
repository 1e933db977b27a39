import { type LoggerService } from '@nestjs/common';
import { pino, type Logger, type LoggerOptions } from 'pino';
import { redactDeep } from './redact.js';
import { activeTraceIds } from './tracing.js';

export type AppLogger = Logger;

export interface LoggerSettings {
  readonly level: string;
  readonly name: string;
  /** Where lines go; default stdout. Tests pass a stream to read what was logged. */
  readonly destination?: NodeJS.WritableStream;
}

/**
 * JSON logs, one object per line. Every object logged passes through `redactDeep`, so a secret
 * cannot reach a log line even when a caller logs a whole request or error.
 */
export function createLogger(settings: LoggerSettings): AppLogger {
  const options: LoggerOptions = {
    level: settings.level,
    name: settings.name,
    base: { service: settings.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The active span's traceId and spanId (none when tracing is off or no span is active).
    mixin: activeTraceIds,
    messageKey: 'msg',
    formatters: {
      level: (label) => ({ level: label }),
      log: (obj) => redactDeep(obj) as Record<string, unknown>,
    },
    serializers: { err: (e: unknown) => redactDeep(e) },
  };
  return settings.destination
    ? pino(options, settings.destination as unknown as pino.DestinationStream)
    : pino(options);
}

/** Routes Nest's own log calls (bootstrap, routes, exceptions) into the same JSON logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: AppLogger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    rest: unknown[],
  ): void {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (message instanceof Error) {
      this.logger[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ context, ...(message as Record<string, unknown>) });
    } else {
      const trace = level === 'error' && typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
      this.logger[level]({ context, stack: trace }, String(message));
    }
  }
}
