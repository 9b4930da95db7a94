import { buildApp } from './app';
import { recordPublicUrl } from './backoffice/staff';
import { type Config, loadConfig, productionRefusal, startBanner } from './config';
import { createDatabase, migrate } from './db/index';
import { LOCKS, withPgLock } from './db/pg-locks';
import { seed } from './db/seed';
import { createDeps } from './deps';
import { followOpsClock, JOBS, startJobs, startOpsClock } from './jobs/index';
import { Metrics, serveMetrics } from './lib/metrics';
import { hearEndedSessions } from './lib/session-notices';
import { observePushes } from './notify/sender';
import { ledgerAuditJob } from './ops/audit-runs';
import { watchDomain } from './ops/metrics';

/**
 * The configuration, or the process ends with why not — a value that cannot be meant, or
 * production's refusal of demo defaults and weak settings — as one clear message each, never a
 * stack trace, before anything touches the database.
 */
function configOrExit(): Config {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(`Bourse refuses to start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
  const refusal = productionRefusal(config);
  if (refusal) {
    console.error(refusal);
    process.exit(1);
  }
  return config;
}

/** `npm start`: migrate, seed, start the market and serve the app and the API on one port. */
async function main(): Promise<void> {
  const started = performance.now();
  const config = configOrExit();
  const database = createDatabase(config.databaseUrl, {
    groupCommit: config.sqliteGroupCommit,
    connectTimeoutMs: config.pgConnectTimeoutMs,
  });
  const deps = createDeps(config, database);
  const { market } = deps;
  const prepare = async () => {
    await migrate(database);
    await seed(deps);
    // CLOCK_START with OPS_CLOCK: the operator's offset starts where the clock does (clock:advance
    // then moves it on from there), unless an operator has set one already.
    if (config.opsClock && config.clockStart !== null) await startOpsClock(deps);
  };
  // Instances started together on one PostgreSQL database prepare it one after another.
  if (database.dialect === 'postgres') await withPgLock(config.databaseUrl, LOCKS.startup, prepare);
  else await prepare();
  // Metrics only when asked for (METRICS_PORT): without them no request pays for any.
  const metrics = config.metrics.port ? new Metrics() : null;
  if (metrics) {
    metrics.watchDatabase(database);
    watchDomain(metrics, deps);
    observePushes(deps, metrics.pushObserver);
  }
  const app = await buildApp(deps, { metrics });
  const jobs = [
    ...JOBS,
    ...(config.opsClock ? [followOpsClock] : []),
    ...(config.ledgerAuditMs > 0 ? [ledgerAuditJob(config.ledgerAuditMs)] : []),
  ];
  const log = (msg: string, err: unknown) => app.log.error({ err }, msg);
  const stopJobs = startJobs(deps, jobs, log, metrics?.jobObserver);
  // Several instances on PostgreSQL: each hears the sessions the others end.
  const stopNotices = hearEndedSessions(deps, log);
  app.addHook('onClose', async () => {
    stopJobs();
    stopNotices();
    market.stop();
    await database.close();
  });
  if (metrics) {
    const served = await serveMetrics(metrics, config.metrics.port, config.metrics.host);
    app.addHook('onClose', served.close);
  }
  market.start();
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  await recordPublicUrl(deps, typeof address === 'object' && address ? address.port : config.port);

  process.stdout.write(startBanner(config, performance.now() - started));

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
