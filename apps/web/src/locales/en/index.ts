/** This language's catalogs, by namespace (the file's name): one chunk, loaded when the language is. */
const FILES = import.meta.glob<Record<string, string>>('./*.json', { import: 'default', eager: true });
export default FILES;
