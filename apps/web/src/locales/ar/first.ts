/**
 * This language's catalogs that sign-in reads (lib/i18n/catalogs.ts, FIRST_NAMESPACES), by
 * namespace (the file's name): loaded at boot. English's are part of the app's first file.
 */
const FILES = import.meta.glob<Record<string, string>>(
  ['./app.json', './auth.json', './common.json', './msg.json', './shell.json'],
  { import: 'default', eager: true },
);
export default FILES;
