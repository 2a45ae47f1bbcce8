/** The schemes a document's remote resources may use; a module of its own so that knowing a URL is remote loads no network code. */
export const RESOURCE_SCHEMES = ['http:', 'https:'];
