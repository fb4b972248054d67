// Command validate loads compose files with compose's own loader (compose-go, the library docker compose v2 is
// built on) and reports compose's own errors. This machine has no Docker engine, so this is how the compose stack
// is checked: interpolation, merge anchors, schema, and the model docker compose would run.
//
//	go run . ../compose.yaml
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: validate compose.yaml [more.yaml ...]")
		os.Exit(2)
	}
	failed := false
	for _, file := range os.Args[1:] {
		if err := validate(file); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", file, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func validate(file string) error {
	abs, err := filepath.Abs(file)
	if err != nil {
		return err
	}
	options, err := cli.NewProjectOptions([]string{abs},
		cli.WithWorkingDirectory(filepath.Dir(abs)),
		cli.WithOsEnv,
		cli.WithDotEnv,
		// Every profile, so services behind obs/load/per-variant profiles are validated too.
		cli.WithProfiles([]string{"*"}),
	)
	if err != nil {
		return err
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		return err
	}
	names := make([]string, 0, len(project.Services))
	for name, service := range project.Services {
		if service.Build != nil {
			dockerfile := filepath.Join(service.Build.Context, service.Build.Dockerfile)
			if _, err := os.Stat(dockerfile); err != nil {
				return fmt.Errorf("service %s: Dockerfile %s: %w", name, dockerfile, err)
			}
		}
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Printf("%s: valid (project %s, services %v)\n", file, project.Name, names)
	return nil
}
