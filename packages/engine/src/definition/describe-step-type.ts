/** "an EXTRACT step", "a PARSE step": the step type with its English article. */
export function aStep(type: string): string {
  return `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type} step`;
}
