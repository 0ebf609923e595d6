/** An antd form rule: empty, or a JSON object written as text ('Illegal JSON string' otherwise). */
export function jsonObjectRule(message: string) {
  return {
    validator: async (_: unknown, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      try {
        const parsed: unknown = JSON.parse(String(value));
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return;
      } catch {
        // reported below
      }
      throw new Error(message);
    },
  };
}

export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text ?? '');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
