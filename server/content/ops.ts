import { idArg, options, readSource } from '../ops/commands/args';
import type { OpsCommand } from '../ops/commands/command';
import { replyToChat } from './chat';
import { publishNews } from './news';

/** The operator's side of news and customer service: publishing articles, answering chats. */
export const CONTENT_COMMANDS: OpsCommand[] = [
  {
    name: 'news:publish',
    usage: 'news:publish <file|-> --title T --subhead S',
    summary: 'publish an article, sanitised when stored; [--img /path-or-https-url]',
    mutates: true,
    async run(deps, args) {
      const { positional, named } = options(args);
      const [source] = positional;
      if (!source) throw new Error('Give an HTML file, or - to read standard input');
      const newsId = await publishNews(deps, {
        title: named.title ?? '',
        subhead: named.subhead ?? '',
        html: await readSource(source),
        img: named.img ?? null,
      });
      return `Article ${newsId} published`;
    },
  },
  {
    name: 'chat:reply',
    usage: 'chat:reply <userId> <text>',
    summary: "answer a user's customer-service chat",
    mutates: true,
    async run(deps, [arg, ...words]) {
      const userId = idArg(arg, 'user');
      const messageId = await replyToChat(deps, userId, words.join(' '));
      return `Reply ${messageId} sent to user ${userId}`;
    },
  },
];
