// How many of a batch's groups the advantage's std filter dropped, in a sentence that reads true for any
// count (none, some, the filter off): slow motion's phase 6 and lesson 4 say it alike.

/** The batch's filtered groups in a sentence that holds whatever their number (none, some, the filter off). */
export function filteredInWords(filtered: number, groups: number, filterStd: number | null): string {
  if (filterStd === null) return `The filter is off: none of the ${groups} groups is dropped, however alike its rewards.`;
  return filtered === 0
    ? `None of the ${groups} groups in the batch was filtered (a group is, when all its G rewards are nearly equal: nothing to learn from it).`
    : `In the whole batch ${filtered} of ${groups} groups were filtered: all their G rewards were nearly equal, nothing to learn from them.`;
}
