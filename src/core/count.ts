// A count with its noun, singular for one: "1 iteration", "48 iterations".

export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
