/** This language's other catalogs, by namespace: one chunk, loaded with the first screen past sign-in. */
const FILES = import.meta.glob<Record<string, string>>(
  ['./*.json', '!./app.json', '!./auth.json', '!./common.json', '!./msg.json', '!./shell.json'],
  { import: 'default', eager: true },
);
export default FILES;
