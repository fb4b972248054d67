package dev.restbench.quarkus.api;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The Allow header of a 405: the methods the resource at that path has, read once from the JAX-RS annotations of the
 * resource classes. Quarkus REST's NotAllowedException carries no Allow header (and its automatic OPTIONS lists
 * every method of the class, whatever the path), so the problem mapper adds this one.
 */
final class AllowedMethods {

    private static final Map<Pattern, String> BY_PATH =
            build(CategoryResource.class, ItemResource.class, CacheResource.class);

    private AllowedMethods() {
    }

    /** e.g. "GET, HEAD, OPTIONS, POST" for /items; null for a path no resource serves. */
    static String at(String path) {
        for (Map.Entry<Pattern, String> entry : BY_PATH.entrySet()) {
            if (entry.getKey().matcher(path).matches()) {
                return entry.getValue();
            }
        }
        return null;
    }

    private static Map<Pattern, String> build(Class<?>... resources) {
        Map<String, TreeSet<String>> methods = new LinkedHashMap<>();
        for (Class<?> resource : resources) {
            String base = resource.getAnnotation(Path.class).value();
            for (Method method : resource.getMethods()) {
                String httpMethod = httpMethod(method);
                if (httpMethod == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                String template = sub == null ? base : base + "/" + sub.value();
                TreeSet<String> allowed = methods.computeIfAbsent(template, key -> new TreeSet<>(List.of("OPTIONS")));
                allowed.add(httpMethod);
                if (httpMethod.equals("GET")) {
                    allowed.add("HEAD");
                }
            }
        }
        Map<Pattern, String> byPath = new LinkedHashMap<>();
        methods.forEach((template, allowed) -> byPath.put(
                Pattern.compile(template.replaceAll("\\{[^}]+}", "[^/]+") + "/?"),
                allowed.stream().collect(Collectors.joining(", "))));
        return byPath;
    }

    private static String httpMethod(Method method) {
        List<String> found = new ArrayList<>();
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                found.add(http.value());
            }
        }
        return found.isEmpty() ? null : found.get(0);
    }
}
