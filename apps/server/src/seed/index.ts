/** Named seed scenarios. */
import type { Services } from '../core/services.ts';

export function seedScenario(_services: Services, _name: string) {}
