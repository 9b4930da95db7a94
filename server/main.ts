import { buildApp } from './app';
import { loadConfig } from './config';
import { createDatabase, migrate } from './db/index';
import { seed } from './db/seed';
import type { Deps } from './deps';
import { followOpsClock, JOBS, startJobs } from './jobs/index';
import { systemClock } from './lib/clock';
import { createMarket } from './market/index';

/** `npm start`: migrate, seed, start the market and serve the app and the API on one port. */
async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const database = createDatabase(config.databaseUrl);
  await migrate(database);
  const clock = systemClock();
  const market = createMarket(config, clock.now);
  const deps: Deps = { config, database, clock, market };
  await seed(deps);
  const app = await buildApp(deps);
  const jobs = config.opsClock ? [...JOBS, followOpsClock] : JOBS;
  const stopJobs = startJobs(deps, jobs, (msg, err) => app.log.error({ err }, msg));
  app.addHook('onClose', async () => {
    stopJobs();
    market.stop();
    await database.close();
  });
  market.start();
  await app.listen({ port: config.port, host: config.host });

  const url = `http://localhost:${config.port}/`;
  const lines = [
    '',
    `  Bourse is running at ${url}  (ready in ${Math.round(performance.now() - started)} ms)`,
    `  Database:        ${config.databaseUrl.replace(/\/\/[^@]*@/, '//***@')}`,
    `  Invitation code: ${config.inviteCode}`,
    config.demo ? `  Demo login:      ${config.demo.phone} / ${config.demo.password}` : '',
    '',
  ];
  process.stdout.write(`${lines.filter((l, i) => l || i === 0 || i === lines.length - 1).join('\n')}\n`);

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
