import 'reflect-metadata';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Registry } from 'prom-client';
import { createLogger, LOGGER, METRICS_REGISTRY } from '#observability';
import { PROVIDER_CLIENT, ProviderClient, ProviderClientModule } from '#provider-client';
import { StubProvider } from './support/stub-provider.js';
import { testOptions } from './support/test-client.js';

describe('ProviderClientModule', () => {
  it('provides PROVIDER_CLIENT through Nest DI and closes it on shutdown', async () => {
    const stub = await StubProvider.start();
    const registry = new Registry();
    @Global()
    @Module({
      providers: [
        { provide: LOGGER, useValue: createLogger({ level: 'silent', name: 't' }) },
        { provide: METRICS_REGISTRY, useValue: registry },
      ],
      exports: [LOGGER, METRICS_REGISTRY],
    })
    class ObservabilityTestModule {}
    @Module({ imports: [ObservabilityTestModule, ProviderClientModule.register(testOptions(stub))] })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, {
      logger: false,
      abortOnError: false,
    }).catch(async (e: unknown) => {
      await stub.close();
      throw e;
    });
    const client = app.get<ProviderClient>(PROVIDER_CLIENT);
    assert.ok(client instanceof ProviderClient);
    stub.on('/payout/v1/getBeneId', {
      body: { status: 'SUCCESS', subCode: 200, message: 'ok', data: { beneId: 'B1' } },
    });
    const r = await client.getBeneId({ bankAccount: '026291800001191', ifsc: 'YESB0000262' });
    assert.equal(r.outcome, 'success');
    assert.match(await registry.metrics(), /payouts_provider_request_duration_seconds/);
    await app.close();
    await stub.close();
  });
});
