import { ResourceLoadError, type LoadContext, type LoadedResource, type ResourceLoader } from './loader.js';

/**
 * One loader made of several, asked in order: the first that does not refuse a URL's scheme
 * (`unsupported_scheme`) answers for it, whether it loads or fails. The remote loader takes
 * `http` and `https` and the folder loader relative paths and `file:`, so
 * `combineLoaders(remoteLoader(), folderLoader('./docs'))` loads both kinds of image.
 */
export function combineLoaders(...loaders: readonly ResourceLoader[]): ResourceLoader {
  return {
    async load(url: string, context: LoadContext): Promise<LoadedResource> {
      let refusal: ResourceLoadError | undefined;
      for (const loader of loaders) {
        try {
          return await loader.load(url, context);
        } catch (error) {
          if (!(error instanceof ResourceLoadError && error.reason === 'unsupported_scheme')) throw error;
          refusal ??= error;
        }
      }
      throw refusal ?? new ResourceLoadError('unsupported_scheme', 'no loader was given for resources outside the document');
    },
  };
}
