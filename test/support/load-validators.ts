import { loadValidators } from '../../functions/domain/kernel/validation.ts';

// Domain code checks bodies with the generated validators, which the HTTP kit and the bots load before use; tests
// that call the domain directly load them here.
await loadValidators();
