import { definition, main } from './generated/index.gen.js';

// Starts the server: `--transport stdio|http`, `--host`, `--port`. Add process-wide setup (tracing, config) above.
main(definition);
