/**
 * css-tree's parser, generator and walker, each from its own entry point: the package's main
 * entry also builds its lexer, which parses MDN's CSS data (~400 KB of JSON) at load — about
 * 20 ms of every cold render with HTML in it, for value checking Quire does not use.
 */
export { default as parse } from 'css-tree/parser';
export { default as generate } from 'css-tree/generator';
export { default as walk } from 'css-tree/walker';
