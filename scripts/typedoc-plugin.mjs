// A typedoc plugin for the API reference: every export is filed under a category by where it is
// defined (client, resources, errors, webhooks, testing), and types are shown the way users write
// them (an interface built from a zod schema does not show the schema as its base type).
import { Comment, CommentTag, Converter, ReflectionKind } from 'typedoc';

/** The category of a file, by its place in src/. The first match wins. */
const CATEGORIES = [
  [/\/src\/core\/errors\.ts$/, 'Errors'],
  [/\/src\/webhooks\//, 'Webhooks'],
  [/\/src\/schemas\/events\.ts$/, 'Webhooks'],
  [/\/src\/testing\//, 'Testing'],
  [/\/src\/(resources|schemas)\//, 'Resources'],
  [/\/src\//, 'Client'],
];

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.parent?.kindOf(ReflectionKind.Module | ReflectionKind.Project)) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile().fileName ?? '';
    const category = CATEGORIES.find(([pattern]) => pattern.test(file))?.[1];
    if (!category) return;
    reflection.comment ??= new Comment();
    if (!reflection.comment.blockTags.some((t) => t.tag === '@category')) {
      reflection.comment.blockTags.push(new CommentTag('@category', [{ kind: 'text', text: category }]));
    }
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of Object.values(context.project.reflections)) {
      // A schema shares its name with its type (`const Question = …; interface Question …`): the schemas are
      // internal, so only the type is documented.
      if (reflection.kindOf(ReflectionKind.TypeAlias | ReflectionKind.Variable) && isZodSchema(reflection.type)) {
        context.project.removeReflection(reflection);
        continue;
      }
      // `interface Question extends z.output<typeof Question>`: the base is how the type is built, not what it is.
      if (reflection.extendedTypes) {
        reflection.extendedTypes = reflection.extendedTypes.filter((t) => !(t.type === 'reference' && t.package === 'zod'));
        if (reflection.extendedTypes.length === 0) delete reflection.extendedTypes;
      }
    }
  });
}

/** Whether a type is one of zod's schema types (`ZodMiniObject<…>`, `ZodMiniType<…>`, …). */
function isZodSchema(type) {
  return type?.type === 'reference' && type.package === 'zod' && /^(\$?Zod|ZodMini)/.test(type.qualifiedName ?? type.name);
}
