//go:build !(linux && (desktop || dev))

package window

import (
	"context"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

func windowSetSize(ctx context.Context, width, height int) {
	wruntime.WindowSetSize(ctx, width, height)
}

func windowSetAlwaysOnTop(ctx context.Context, on bool) { wruntime.WindowSetAlwaysOnTop(ctx, on) }

func windowMove(ctx context.Context, x, y int) { wruntime.WindowSetPosition(ctx, x, y) }
