import fs from 'node:fs'; import zlib from 'node:zlib';
const f = 'dist/index.html'; const d = fs.readFileSync(f);
fs.writeFileSync(f + '.gz', zlib.gzipSync(d)); fs.writeFileSync(f + '.br', zlib.brotliCompressSync(d));
