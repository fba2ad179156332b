/**
 * The scenario that checks a host reads no skill file before a skill is used
 * (`sep-2640-host-no-prefetch`): nobody asks for a skill there, so the client only lists them.
 */
export const NO_PREFETCH_SCENARIO = 'sep-2640-client-no-prefetch';

/**
 * Whether the scripted user of a scenario asks for every skill the server lists (as a user
 * typing each skill's slash command would): yes, except in {@link NO_PREFETCH_SCENARIO}, where
 * the point is that a host that is not asked for a skill reads none of its files.
 */
export function loadsSkills(scenario: string): boolean {
  return scenario !== NO_PREFETCH_SCENARIO;
}
