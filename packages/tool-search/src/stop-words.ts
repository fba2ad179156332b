/**
 * Words of requests that say nothing about which tool is meant: English function words and the
 * politeness around a request ("can you please show me"). They are not searched for on their own;
 * inside a phrase of the vocabulary ("go to", "log in") they still count.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `
  a about above after again all am an and any are as at be because been before being below between both but by
  can could did do does doing down during each else few for from further had has have having he her here
  hers him his how i if in into is it its itself just let lets me might more most must my myself need no nor not
  now of off on once only onto or other our ours out over own please pls same shall she should so some such than
  that the their theirs them then there these they this those through to too under until up us very via want was
  we were what when where which while whom whose why will with would you your yours yourself using use also
  whether etc eg ie something thing things stuff everything anything nothing someone anyone everyone
  `
    .trim()
    .split(/\s+/),
);
