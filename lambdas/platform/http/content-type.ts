/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export const isJsonMediaType = (type: string): boolean => type === 'application/json' || type.endsWith('+json');
