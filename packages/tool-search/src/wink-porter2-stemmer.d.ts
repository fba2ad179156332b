// wink-porter2-stemmer ships no types: one CommonJS function, word in, stem out.
declare module 'wink-porter2-stemmer' {
  function stem(word: string): string;
  export = stem;
}
