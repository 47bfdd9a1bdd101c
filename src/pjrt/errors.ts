export { PjrtError, UnsupportedError, PluginLoadError, type PluginLoadErrorKind } from '../ffi/index.js';
