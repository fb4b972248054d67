package dev.restbench.runner.build;

import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The aggregator pom {@link VariantBuilder} builds Maven variants with: the shared modules first, then the variant
 * modules, by their folders. It only aggregates (no inheritance): each module keeps its own parent, the root pom.
 */
final class MavenReactor {

    private MavenReactor() {
    }

    /** Writes {@code <root>/target/restbench-build/<name>.pom.xml} and returns it. */
    static Path write(Path root, List<String> sharedModules, List<String> variantModules, String name) {
        Path dir = root.resolve(VariantBuilder.WORK);
        List<String> modules = new ArrayList<>(sharedModules);
        modules.addAll(variantModules);
        StringBuilder pom = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- Written by ./bench build (VariantBuilder) from benchmarks.json; not a source file. -->
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>dev.restbench.build</groupId>
                """);
        pom.append("  <artifactId>").append(name.replaceAll("[^A-Za-z0-9._-]", "_")).append("</artifactId>\n");
        pom.append("  <version>0</version>\n  <packaging>pom</packaging>\n  <modules>\n");
        for (String module : modules) {
            pom.append("    <module>").append(dir.relativize(root.resolve(module))).append("</module>\n");
        }
        pom.append("  </modules>\n</project>\n");
        Path file = dir.resolve(name + ".pom.xml");
        try {
            Files.createDirectories(dir);
            Files.writeString(file, pom);
        } catch (IOException e) {
            throw new VariantBuilder.BuildFailure("cannot write " + file + ": " + e.getMessage());
        }
        return file;
    }

    /** The project's own artifactId (not its parent's). */
    static String artifactId(Path pom) {
        if (!Files.isRegularFile(pom)) {
            throw new VariantBuilder.BuildFailure(pom + " does not exist: a variant with \"build\": {\"tool\": \"maven\"}"
                    + " needs a pom.xml in its folder");
        }
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            Element project = factory.newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
            for (Node child = project.getFirstChild(); child != null; child = child.getNextSibling()) {
                if (child instanceof Element element && element.getTagName().equals("artifactId")) {
                    return element.getTextContent().trim();
                }
            }
            throw new VariantBuilder.BuildFailure(pom + " has no artifactId");
        } catch (VariantBuilder.BuildFailure e) {
            throw e;
        } catch (Exception e) {
            throw new VariantBuilder.BuildFailure("cannot read " + pom + ": " + e.getMessage());
        }
    }
}
