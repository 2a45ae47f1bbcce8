// Regenerates engine/content/highlight/aliases.ts from the installed highlight.js: every alias a
// language answers to, mapped to the file name of its module. Run after upgrading highlight.js.
import { writeFileSync } from 'node:fs';
import hljs from 'highlight.js';

const map = {};
for (const name of hljs.listLanguages()) {
  for (const alias of hljs.getLanguage(name).aliases ?? []) {
    const key = alias.toLowerCase();
    if (key !== name && !map[key]) map[key] = name;
  }
}
const version = JSON.parse((await import('node:fs')).readFileSync(new URL('../node_modules/highlight.js/package.json', import.meta.url), 'utf8')).version;
const entries = Object.keys(map)
  .sort()
  .map((key) => `  ${JSON.stringify(key)}: ${JSON.stringify(map[key])},`);
writeFileSync(
  new URL('../engine/content/highlight/aliases.ts', import.meta.url),
  `// Generated from highlight.js ${version} (every language's aliases): scripts/highlight-aliases.mjs.\n/** Alias → the file name of its language module in highlight.js. */\nexport const ALIASES: Readonly<Record<string, string>> = {\n${entries.join('\n')}\n};\n`,
);
