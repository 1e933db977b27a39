import { Inject, Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';

/** What readiness needs to know about provider access (ProviderAccessState fits). */
export interface ProviderAccessView {
  problems(): ReadonlyArray<{ readonly accountId: string; readonly reason: string; readonly since: string }>;
}

/** Provided by the app when it calls the provider; without it the `provider` check is always up. */
export const PROVIDER_ACCESS = Symbol('PROVIDER_ACCESS');

/**
 * The provider is "ready" unless its latest telling answer for some account was a configuration
 * fault (bad credentials, source IP not whitelisted, APIs not enabled). Nothing here calls the
 * provider: the state is fed by the calls the service makes anyway, so it turns green again after
 * the next call that works.
 */
@Injectable()
export class ProviderHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    @Optional() @Inject(PROVIDER_ACCESS) private readonly access?: ProviderAccessView,
  ) {}

  check(key = 'provider') {
    const indicator = this.health.check(key);
    const problems = this.access?.problems() ?? [];
    if (problems.length === 0) return indicator.up();
    return indicator.down({
      message: problems.map((p) => `${p.accountId}: ${p.reason}`).join('; '),
      accounts: problems,
    });
  }
}
