// jsdom's browser speaks en-US. The console's tests are written for a browser in Chinese, the product's own first
// visit (the console follows the browser's language when nothing is chosen yet); tests of that choice set their own.
Object.defineProperty(window.navigator, 'languages', { configurable: true, get: () => ['zh-CN', 'zh'] });
