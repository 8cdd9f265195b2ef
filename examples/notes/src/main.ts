import { main } from './generated/runtime/start.gen.js';
import { definition } from './generated/server.gen.js';

// Starts the server: `--transport stdio|http`, `--host`, `--port`. Add process-wide setup (tracing, config) above.
main(definition);
