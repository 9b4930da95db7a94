import { replyAs } from '../../content/inbox';
import { publishNews } from '../../content/news';
import { audited } from '../../lib/audit-log';
import { idArg, options, readSource } from './args';
import type { OpsCommand } from './command';
import { consoleError, operatorActor } from './operator';

/**
 * The operator's side of news and customer service: publishing articles, answering chats. Both are
 * audited under the console's operator; a reply is the inbox's own (content/inbox.ts), as the
 * back office sends it.
 */
export const CONTENT_COMMANDS: OpsCommand[] = [
  {
    name: 'news:publish',
    usage: 'news:publish <file|-> --title T --subhead S',
    summary: 'publish an article, sanitised when stored; [--img /path/of/an/image/on/this/site.jpg]',
    mutates: true,
    async run(deps, args, actor) {
      const { positional, named } = options(args);
      const [source] = positional;
      if (!source) throw new Error('Give an HTML file, or - to read standard input');
      const html = await readSource(source);
      const { result: newsId } = await audited(
        deps.database,
        operatorActor(deps, actor),
        deps.clock.now,
        async (trx) => {
          const id = await publishNews(
            deps,
            { title: named.title ?? '', subhead: named.subhead ?? '', html, img: named.img ?? null },
            trx,
          );
          return {
            result: id,
            entry: {
              action: 'news:publish',
              targetType: 'news',
              targetId: id,
              after: { title: named.title },
            },
          };
        },
      );
      return `Article ${newsId} published`;
    },
  },
  {
    name: 'chat:reply',
    usage: 'chat:reply <userId> <text>',
    summary: "answer a user's customer-service chat",
    mutates: true,
    async run(deps, [arg, ...words], actor) {
      const userId = idArg(arg, 'user');
      const reply = await replyAs(deps, operatorActor(deps, actor), userId, words.join(' ')).catch(
        (err: unknown) => {
          throw consoleError(err, `No user ${userId}`);
        },
      );
      return `Reply ${reply.id} sent to user ${userId}`;
    },
  },
];
