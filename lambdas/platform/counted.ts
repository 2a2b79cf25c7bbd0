/** `n` and the noun it counts, singular for 1 ("1 credit", "2 credits") in the words an error answers with. */
export const counted = (n: number, singular: string, plural = `${singular}s`): string => `${n} ${n === 1 ? singular : plural}`;
