/** SPEC section 9 time bands: before 9, to 11, to 13, before 20, later. */
export function greetingKey(hour: number): string {
  if (hour < 9) return 'greeting.morning';
  if (hour <= 11) return 'greeting.forenoon';
  if (hour <= 13) return 'greeting.noon';
  if (hour < 20) return 'greeting.afternoon';
  return 'greeting.evening';
}
