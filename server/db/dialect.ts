/** The two databases the server runs on (one schema, one query layer). */
export type Dialect = 'sqlite' | 'postgres';
